import type { ApexOptions } from 'apexcharts';
import { lazy } from 'react';
import { MONTHS_FR, WEEKDAYS_FR } from './calendar';

/** apexcharts is loaded with the first chart, not with the page: the cards show before it arrives. */
export const Chart = lazy(() => import('./apex-chart'));

const FR_LOCALE = {
  name: 'fr',
  options: {
    months: [...MONTHS_FR],
    shortMonths: [
      'janv.',
      'févr.',
      'mars',
      'avr.',
      'mai',
      'juin',
      'juil.',
      'août',
      'sept.',
      'oct.',
      'nov.',
      'déc.',
    ],
    // ApexCharts' weeks start on Sunday.
    days: [WEEKDAYS_FR[6], ...WEEKDAYS_FR.slice(0, 6)],
    shortDays: ['dim.', 'lun.', 'mar.', 'mer.', 'jeu.', 'ven.', 'sam.'],
    toolbar: {
      exportToSVG: 'Télécharger au format SVG',
      exportToPNG: 'Télécharger au format PNG',
      exportToCSV: 'Télécharger au format CSV',
      menu: 'Menu',
      selection: 'Sélection',
      selectionZoom: 'Sélection et zoom',
      zoomIn: 'Zoomer',
      zoomOut: 'Dézoomer',
      pan: 'Navigation',
      reset: 'Réinitialiser le zoom',
    },
  },
};

/**
 * Options every dashboard chart starts from: French locale, no toolbar, the page's font, and no injected
 * <style> element (the CSP forbids inline styles; apex-chart.ts imports the same CSS from the bundle).
 */
export function baseOptions(extra: ApexOptions = {}): ApexOptions {
  return {
    ...extra,
    chart: {
      locales: [FR_LOCALE],
      defaultLocale: 'fr',
      toolbar: { show: false },
      fontFamily: 'inherit',
      animations: { enabled: false },
      injectStyleSheet: false,
      ...extra.chart,
    },
    noData: { text: 'Aucune donnée disponible' },
  };
}
