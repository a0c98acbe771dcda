// How well one threshold on a timing tells two kinds of request apart (npm run bench:exact-name, decision
// 0015 « Timing of the exact-name search »): what an observer of the times alone could learn.

/**
 * The accuracy of the best rule « slower than t means present » (or its reverse) over the two samples
 * together: 0.5 is chance, 1 tells every time apart.
 */
export function separability(present: number[], absent: number[]): number {
  const all = [
    ...present.map((v) => ({ v, present: true })),
    ...absent.map((v) => ({ v, present: false })),
  ].sort((a, b) => a.v - b.v);
  let presentBelow = 0;
  let absentBelow = 0;
  let best = 0.5;
  for (const [i, x] of all.entries()) {
    if (x.present) presentBelow++;
    else absentBelow++;
    // A threshold cannot fall between two equal times.
    if (all[i + 1]?.v === x.v) continue;
    // Threshold just above x: « above means present » is right for the absent ones below, present ones above.
    const right = (absentBelow + present.length - presentBelow) / all.length;
    best = Math.max(best, right, 1 - right);
  }
  return best;
}
