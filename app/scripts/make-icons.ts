// Draws the installable app's icons (web/public/icons/*.png, committed) once, with Debian's Chromium
// through playwright-core: the project has no logo file, so the icon is drawn here, in the light theme's
// primary colour (read from the built stylesheet's daisyUI theme, so it cannot drift from the app's).
// Run again only to change the drawing: `tsx scripts/make-icons.ts` (after `vite build`).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../tests/e2e/harness.ts';

const root = join(import.meta.dirname, '..');
const out = join(root, 'web', 'public', 'icons');
const css = readdirSync(join(root, 'dist', 'web', 'assets')).find((f) => /^index-.*\.css$/.test(f));
if (!css) throw new Error('Client non construit : lancez « npx vite build » d’abord.');
const stylesheet = readFileSync(join(root, 'dist', 'web', 'assets', css), 'utf8');

/**
 * A document under a magnifier: a report being examined. A maskable icon fills its square and keeps its
 * drawing inside the central 80 % circle that every mask keeps.
 */
function icon(size: number, { maskable }: { maskable: boolean }): string {
  const radius = maskable ? 0 : size * 0.18;
  const scale = maskable ? 0.62 : 0.78;
  return `<!doctype html><html data-theme="light"><head><style>${stylesheet}
    html, body { margin: 0; background: transparent; }
    svg { display: block; }
  </style></head><body>
  <svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100">
    <rect width="100" height="100" rx="${(radius / size) * 100}" fill="var(--color-primary)" />
    <g transform="translate(50 50) scale(${scale}) translate(-50 -50)" fill="none"
       stroke="var(--color-primary-content)" stroke-width="6" stroke-linecap="round" stroke-linejoin="round">
      <path d="M24 12 h34 l16 16 v30" />
      <path d="M58 12 v16 h16" />
      <path d="M24 12 v72 h26" />
      <path d="M34 38 h28 M34 50 h18" />
      <circle cx="66" cy="70" r="13" />
      <path d="M75.5 79.5 L88 92" />
    </g>
  </svg></body></html>`;
}

const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage();
  for (const [file, size, maskable] of [
    ['icon-192.png', 192, false],
    ['icon-512.png', 512, false],
    ['icon-maskable-512.png', 512, true],
    ['apple-touch-icon.png', 180, true],
  ] as const) {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(icon(size, { maskable }));
    writeFileSync(join(out, file), await page.locator('svg').screenshot({ omitBackground: true }));
  }
  // A string, not a function: tsx's keepNames would wrap a function's inner names in a helper the page lacks.
  // The theme's colours are oklch(); a canvas pixel gives their sRGB value.
  const colours = await page.evaluate(`(() => {
    const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    const hex = (name) => {
      context.fillStyle = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
      context.fillRect(0, 0, 1, 1);
      return '#' + [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)].map((c) => c.toString(16).padStart(2, '0')).join('');
    };
    return { primary: hex('--color-primary'), base: hex('--color-base-100') };
  })()`);
  console.info(`Icônes écrites dans ${out} ; couleurs du thème : ${JSON.stringify(colours)}`);
} finally {
  await browser.close();
}
