// The one fr-FR number formatter of the code base, shared by the client (toasts, totals, the journal screen)
// and the server (the journal's sentences and the alert e-mails), so a count reads the same everywhere.

const numberFormat = new Intl.NumberFormat('fr-FR');

/**
 * A number with French separators: '1 234,5', the thousands grouped by the narrow no-break space (U+202F)
 * that Intl's fr-FR gives, so a count never breaks across lines. Every count shown in a toast, an alert, a
 * total or the journal goes through it ('1234 entrée(s)' and '1 234 élément(s)' side by side read as two numbers).
 */
export function formatNumber(value: number): string {
  return numberFormat.format(value);
}
