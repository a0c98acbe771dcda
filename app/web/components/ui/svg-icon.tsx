import type { ReactNode, SVGProps } from 'react';

// The wrapper of the inline stroke icons (24×24 grid): no icon font or CDN may be loaded.

export type IconProps = SVGProps<SVGSVGElement> & { size?: number };

/** An inline stroke icon; `size` falls back to the set's default (18 in the shell, 16 elsewhere). */
export function SvgIcon({
  size,
  defaultSize,
  children,
  ...props
}: IconProps & { defaultSize: number; children: ReactNode }) {
  const side = size ?? defaultSize;
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={side}
      height={side}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}
