import { useCallback, useMemo, useState } from 'react';

interface State {
  scope: string;
  codes: ReadonlySet<string>;
  wholeFilter: boolean;
}
const EMPTY: ReadonlySet<string> = new Set();

/**
 * The list's selection for bulk actions: codes picked on the current page, or the whole filter. It belongs
 * to one `scope` (the filters and the page): when they change it is empty, so it never holds rows the user
 * no longer sees.
 */
export function useBulkSelection(pageCodes: readonly string[], scope: string) {
  const [state, setState] = useState<State>({ scope, codes: EMPTY, wholeFilter: false });
  const current = state.scope === scope ? state : { scope, codes: EMPTY, wholeFilter: false };
  const { codes, wholeFilter } = current;

  const toggle = useCallback(
    (code: string) =>
      setState((s) => {
        const next = new Set(s.scope === scope ? s.codes : EMPTY);
        if (next.has(code)) next.delete(code);
        else next.add(code);
        return { scope, codes: next, wholeFilter: false };
      }),
    [scope],
  );

  const allOnPage = pageCodes.length > 0 && pageCodes.every((c) => codes.has(c));
  const someOnPage = pageCodes.some((c) => codes.has(c));

  const togglePage = useCallback(
    () => setState({ scope, codes: allOnPage ? EMPTY : new Set(pageCodes), wholeFilter: false }),
    [scope, allOnPage, pageCodes],
  );
  const clear = useCallback(() => setState({ scope, codes: EMPTY, wholeFilter: false }), [scope]);
  const selectFilter = useCallback(() => setState((s) => ({ ...s, scope, wholeFilter: true })), [scope]);

  return useMemo(
    () => ({ codes, wholeFilter, allOnPage, someOnPage, toggle, togglePage, selectFilter, clear }),
    [codes, wholeFilter, allOnPage, someOnPage, toggle, togglePage, selectFilter, clear],
  );
}

export type BulkSelection = ReturnType<typeof useBulkSelection>;
