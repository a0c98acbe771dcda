import type { ReactNode } from 'react';
import { ShieldAlertIcon } from '#web/components/icons';
import { serverMessage } from '#web/lib/errors';
import { TWO_FACTOR_TEXT as TEXT } from './two-factor-text';

/** The centred card of the log-in screens, shared by the second-factor pages. */
export function TwoFactorCard({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-base-200 p-4">
      <div className="card w-full max-w-md bg-base-100 shadow-xl">
        <div className="card-body gap-4">
          <div className="flex flex-col items-center gap-2 text-center">
            <span className="rounded-full bg-primary/10 p-3 text-primary">
              <ShieldAlertIcon size={28} />
            </span>
            <h1 className="text-2xl font-bold">{title}</h1>
            {intro && <p className="text-sm text-base-content/70">{intro}</p>}
          </div>
          {children}
        </div>
      </div>
    </main>
  );
}

/** The refusal of a second-factor form's request, above its fields; nothing while there is none. */
export function TwoFactorError({ error, fallback }: { error: unknown; fallback: string }) {
  if (!error) return null;
  return (
    <div role="alert" className="alert alert-error alert-soft" data-testid="two-factor-error">
      <span>{serverMessage(error, fallback)}</span>
    </div>
  );
}

/** The props of the field of an app's code (six digits, a space allowed), but its id. */
export const CODE_FIELD = {
  name: 'code',
  label: TEXT.codeLabel,
  inputMode: 'numeric',
  autoComplete: 'one-time-code',
  maxLength: 7,
  inputClassName: 'tracking-widest',
} as const;
