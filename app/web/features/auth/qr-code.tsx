import { encode } from 'uqr';

/** A QR code drawn in the page as one SVG path (no network, no inline style). */
export function QrCode({ value, label, size = 200 }: { value: string; label: string; size?: number }) {
  const { data } = encode(value, { border: 2 });
  let d = '';
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) d += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${data.length} ${data.length}`}
      width={size}
      height={size}
      shapeRendering="crispEdges"
      className="rounded bg-white"
      data-testid="two-factor-qr"
    >
      <path d={d} fill="#000" />
    </svg>
  );
}
