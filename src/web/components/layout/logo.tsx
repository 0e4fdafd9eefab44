/** The logo: an inline SVG (no image request, so nothing competes with the hero text for the first paint). */
export function LogoMark({ size = 36 }: { size?: number }) {
  return (
    <svg className="logo-mark" viewBox="0 0 40 40" width={size} height={size} aria-hidden="true" focusable="false">
      <circle cx="20" cy="20" r="19" fill="#ffb300" stroke="#3f3d56" strokeWidth="2" />
      <path d="M9 31c4-1 7-4 7-8s3-6 7-6 7-3 8-8" fill="none" stroke="#fff" strokeWidth="4.5" strokeLinecap="round" />
      <path
        d="M9 31c4-1 7-4 7-8s3-6 7-6 7-3 8-8"
        fill="none"
        stroke="#3949ab"
        strokeWidth="1.6"
        strokeDasharray="2.5 2.5"
      />
      <circle cx="31" cy="9" r="3" fill="#3949ab" />
    </svg>
  );
}
