// The chart component with apexcharts' stylesheets taken from the bundle: the Content-Security-Policy
// (server/http/security-headers.ts) refuses the <style> elements apexcharts would otherwise inject, so
// every chart turns `chart.injectStyleSheet` off (chart.tsx). Loaded lazily, with the first chart.
import 'apexcharts/dist/apexcharts.css';
import 'apexcharts/dist/apexcharts-legend.css';

export { default } from 'react-apexcharts';
