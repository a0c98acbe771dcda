// axe-core in the page under test (no serious or critical accessibility violation, README « Test »). The
// engine is evaluated as a script through the DevTools protocol, which the page's Content-Security-Policy
// does not govern, then run on the document as it is.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Waits for the page's running animations to end (a dialog still fading in would be measured half
 * transparent), at most 2 s: some never report their end (a spinner, a toast's timer bar).
 */
export async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]),
  );
}

/**
 * Serious and critical violations on the page (WCAG 2.1 A and AA rules, and best practices), once its
 * animations have settled: a dialog measured while fading in fails colour contrast by chance (it did in CI,
 * « jeton créé » of acces-api.e2e.ts, for files that did not settle first).
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  await settleAnimations(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{
            violations: Array<{
              id: string;
              impact: string | null;
              help: string;
              nodes: Array<{ target: unknown[] }>;
            }>;
          }>;
        };
      }
    ).axe;
    const run = await axe.run(document, { resultTypes: ['violations'] });
    return run.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? 'minor',
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => JSON.stringify(n.target)),
    }));
  });
  return results.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** One readable line per violation, for a failure message. */
export const describeViolations = (violations: Violation[]) =>
  violations.map((v) => `${v.impact} ${v.id} (${v.help}): ${v.targets.join(' ')}`).join('\n');
