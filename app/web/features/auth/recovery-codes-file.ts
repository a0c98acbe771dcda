import { TWO_FACTOR_TEXT as TEXT } from './two-factor-text';

/**
 * The text of the downloaded recovery codes: a header naming the application, the account and the day
 * (dd/MM/yyyy, Madagascar's), then one code per line, so a person can tell later which account they unlock.
 */
export function recoveryCodesText(codes: readonly string[], email: string, day: string): string {
  return [TEXT.fileHeader, TEXT.fileAccount(email), TEXT.fileDate(day), TEXT.fileUse, '', ...codes, ''].join(
    '\n',
  );
}
