import type { HTMLAttributes, ReactNode } from 'react';

export type BadgeTone = 'red' | 'blue' | 'gray' | 'green' | 'amber' | 'orange' | 'yellow' | 'violet';

// Full class names, written out so Tailwind finds them when scanning.
const TONES: Record<BadgeTone, string> = {
  red: 'bg-red-100 text-red-800 border-red-200',
  blue: 'bg-blue-100 text-blue-800 border-blue-200',
  gray: 'bg-gray-100 text-gray-700 border-gray-200',
  green: 'bg-green-100 text-green-800 border-green-200',
  amber: 'bg-amber-100 text-amber-800 border-amber-200',
  orange: 'bg-orange-100 text-orange-800 border-orange-200',
  yellow: 'bg-yellow-100 text-yellow-800 border-yellow-200',
  violet: 'bg-violet-100 text-violet-800 border-violet-200',
};

export interface BadgeProps extends Omit<HTMLAttributes<HTMLSpanElement>, 'color'> {
  /** Named colour of the badge; ignored when `color` is given. Defaults to gray. */
  tone?: BadgeTone;
  /** A colour from the data (partner, niveau) as a CSS colour, e.g. '#3b82f6': tinted background, coloured text. */
  color?: string | null;
  size?: 'sm' | 'md';
  children: ReactNode;
}

/** A small label (role, status, partner…). */
export function Badge({
  tone = 'gray',
  color,
  size = 'md',
  className = '',
  style,
  children,
  ...props
}: BadgeProps) {
  const sizeClass = size === 'sm' ? 'badge-sm' : '';
  const colourClass = color ? '' : TONES[tone];
  const colourStyle = color
    ? {
        color,
        borderColor: `color-mix(in srgb, ${color} 35%, transparent)`,
        backgroundColor: `color-mix(in srgb, ${color} 12%, transparent)`,
      }
    : undefined;
  return (
    <span
      data-tone={color ? undefined : tone}
      // A long name (a partner's) wraps inside the badge rather than pushing the page sideways on a phone.
      className={`badge ${sizeClass} ${colourClass} h-auto max-w-full py-0.5 font-medium [overflow-wrap:anywhere] ${className}`.trim()}
      style={{ ...colourStyle, ...style }}
      {...props}
    >
      {children}
    </span>
  );
}
