import type { ReactNode } from 'react';
import { ShieldAlertIcon } from '#web/components/icons';

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
