/** Black or white text, whichever reads better on the tag's colour. */
const textOn = (color: string): string => {
  const hex = color.replace('#', '');
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex.slice(0, 6);
  const n = Number.parseInt(full, 16);
  if (Number.isNaN(n)) return '#000000';
  const luminance = 0.299 * ((n >> 16) & 255) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
  return luminance > 150 ? '#000000' : '#ffffff';
};

/** A tag's name in a chip of the tag's colour (administration §2 "name chip in the tag colour"). */
export function TagChip({ name, color }: { name: string; color: string }) {
  return (
    <span
      data-testid="tag-chip"
      title={color}
      style={{
        display: 'inline-block',
        padding: '2px 10px',
        borderRadius: 12,
        backgroundColor: color,
        color: textOn(color),
        fontWeight: 700,
        fontSize: 12,
        whiteSpace: 'nowrap',
      }}
    >
      {name}
    </span>
  );
}
