/** Body of a screen not built yet. */
export function Placeholder({ children = 'Cet écran sera bientôt disponible.' }: { children?: string }) {
  return (
    <div className="card border border-dashed border-base-300 bg-base-100" data-testid="placeholder">
      <div className="card-body items-center text-center text-base-content/70">{children}</div>
    </div>
  );
}
