import { describe, expect, it } from 'vitest';
import { firstLoad, heavyChunks } from './bundle-budget';

const manifest = {
  'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_react.js'] },
  '_react.js': { file: 'assets/react.js' },
  'features/dashboard/dashboard-page.tsx': {
    file: 'assets/dashboard.js',
    imports: ['index.html', '_cards.js'],
  },
  '_cards.js': { file: 'assets/cards.js', imports: ['_react.js'] },
  'features/dashboard/apex-chart.ts': { file: 'assets/apex.js', imports: ['_react.js'] },
};

describe('bundle budget', () => {
  it('counts the entry, the page and their static imports once, not the lazy chunks', () => {
    expect(firstLoad(manifest, 'features/dashboard/dashboard-page.tsx').sort()).toEqual(
      ['_cards.js', '_react.js', 'features/dashboard/dashboard-page.tsx', 'index.html'].sort(),
    );
  });

  it('names the charts or the map when a first load carries them', () => {
    const eager = {
      ...manifest,
      '_cards.js': { file: 'assets/cards.js', imports: ['features/dashboard/apex-chart.ts'] },
    };
    expect(heavyChunks(firstLoad(eager, 'features/dashboard/dashboard-page.tsx'))).toEqual([
      'features/dashboard/apex-chart.ts',
    ]);
    expect(heavyChunks(firstLoad(manifest, 'features/dashboard/dashboard-page.tsx'))).toEqual([]);
  });
});
