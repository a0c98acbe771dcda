import { Link } from 'wouter';
import { FALLBACK_PATH } from '#shared/constants';

export default function NotFoundPage() {
  return (
    <div className="flex flex-col items-center gap-4 py-16 text-center" data-testid="not-found">
      <p className="text-6xl font-bold text-base-content/70" aria-hidden="true">
        404
      </p>
      <h1 className="text-2xl font-bold">Page introuvable</h1>
      <p className="text-base-content/70">La page demandée n'existe pas ou a été déplacée.</p>
      <Link href={FALLBACK_PATH} className="btn btn-primary">
        Retour au tableau de bord
      </Link>
    </div>
  );
}
