import { MAX_PROJECT_AVATARS } from '#shared/constants';
import { EMPTY_VALUE } from '../labels';

interface ProjectLike {
  code: string;
  sigle: string;
  designation: string;
}

/** Project avatars: at most 2, then '+N' for the rest (§9); names in the tooltip and for screen readers. */
export function ProjectAvatars({ projects }: { projects: readonly ProjectLike[] }) {
  if (projects.length === 0) return <p className="text-sm text-base-content/70">{EMPTY_VALUE}</p>;
  const shown = projects.slice(0, MAX_PROJECT_AVATARS);
  const rest = projects.length - shown.length;
  return (
    <div className="flex items-center gap-3" data-testid="project-avatars">
      <div className="avatar-group -space-x-3">
        {shown.map((p) => (
          <div key={p.code} className="avatar avatar-placeholder" title={`${p.sigle} — ${p.designation}`}>
            <div className="w-10 rounded-full bg-primary text-primary-content">
              <span className="text-xs font-semibold">{p.sigle.slice(0, 3).toUpperCase()}</span>
            </div>
          </div>
        ))}
        {rest > 0 && (
          <div
            className="avatar avatar-placeholder"
            title={projects
              .slice(MAX_PROJECT_AVATARS)
              .map((p) => p.sigle)
              .join(', ')}
          >
            <div className="w-10 rounded-full bg-neutral text-neutral-content">
              <span className="text-xs font-semibold" data-testid="project-avatars-more">
                +{rest}
              </span>
            </div>
          </div>
        )}
      </div>
      <span className="sr-only">{projects.map((p) => p.designation).join(', ')}</span>
    </div>
  );
}
