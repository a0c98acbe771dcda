import { Badge } from '#web/components/ui/badge';

export interface PartnerLike {
  code: string;
  designation: string;
  initial: string;
  color: string;
}

/** The partner's avatar: its initial on its colour. */
export function PartnerAvatar({ partner, size = 'md' }: { partner: PartnerLike; size?: 'sm' | 'md' }) {
  const box = size === 'sm' ? 'w-7 text-xs' : 'w-9 text-sm';
  return (
    <div className="avatar avatar-placeholder" aria-hidden="true">
      <div
        className={`${box} rounded-full font-semibold text-white`}
        style={{ backgroundColor: `color-mix(in oklab, ${partner.color} 65%, black)` }}
      >
        <span>{partner.initial}</span>
      </div>
    </div>
  );
}

/** Spec §2 Partners, Désignation column: the badge (initial and code in the partner's colour), then the name. */
export function PartnerBadge({ partner }: { partner: PartnerLike }) {
  return (
    <div className="flex items-center gap-3" data-testid="partner-badge" data-color={partner.color}>
      <PartnerAvatar partner={partner} />
      <div className="flex min-w-0 flex-col items-start gap-1">
        <span className="font-medium">{partner.designation}</span>
        <Badge color={partner.color} size="sm" className="font-mono" data-testid="partner-code">
          {partner.code}
        </Badge>
      </div>
    </div>
  );
}
