/** How many codes are tried before giving up: a collision of 40 random bits is already very unlikely. */
export const FRESH_CODE_ATTEMPTS = 5;

/**
 * Inserts a row under a code chosen by `choose`, choosing again while the code is taken, so a collision
 * never becomes an error for the user. `insert` writes `INSERT … ON CONFLICT (code) DO NOTHING RETURNING …`
 * and gives its row, or undefined when the code was taken: a conflict met that way leaves the
 * transaction usable on PostgreSQL, where a unique violation would abort it (and with it the
 * transaction of an idempotent create that this insert joins). A violation of another unique index
 * still throws.
 */
export async function insertWithFreshCode<R>(
  what: string,
  choose: () => string | Promise<string>,
  insert: (code: string) => Promise<R | undefined>,
): Promise<R> {
  for (let attempt = 0; attempt < FRESH_CODE_ATTEMPTS; attempt++) {
    const row = await insert(await choose());
    if (row !== undefined) return row;
  }
  throw new Error(`no free ${what} code after ${FRESH_CODE_ATTEMPTS} attempts`);
}
