// The chart component with apexcharts' stylesheets taken from the bundle: the Content-Security-Policy
// (server/http/security-headers.ts) refuses the <style> elements apexcharts would otherwise inject, so
// every chart turns `chart.injectStyleSheet` off (chart.tsx). Loaded lazily, with the first chart.
// apexcharts' core with only the chart types and features the dashboard uses (the full build, every type
// and feature, was a 1 MB chunk): area and line, bar, pie and donut; the legend (the analysis' series)
// and keyboard navigation. A chart of another type draws nothing: register its entry here first.
import 'apexcharts/dist/apexcharts.css';
import 'apexcharts/dist/apexcharts-legend.css';
import 'apexcharts/line';
import 'apexcharts/bar';
import 'apexcharts/pie';
import 'apexcharts/features/legend';
import 'apexcharts/features/keyboard';

export { default } from 'react-apexcharts/core';
