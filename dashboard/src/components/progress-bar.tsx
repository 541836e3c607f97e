// A bar of how much of something is used or done (SVG drawn by the page), with its share in words.

export function ProgressBar(props: { value: number; max: number; label: string }) {
  const share = props.max > 0 ? Math.min(1, props.value / props.max) : 0;
  const percent = Math.round(share * 100);
  return (
    <svg class={`bar ${share >= 1 ? 'full' : share >= 0.8 ? 'high' : ''}`} viewBox="0 0 100 8" preserveAspectRatio="none" role="img" aria-label={`${props.label}: ${percent} %`}>
      <rect x="0" y="0" width="100" height="8" rx="2" class="track" />
      <rect x="0" y="0" width={share * 100} height="8" rx="2" class="fill" />
    </svg>
  );
}
