/** What a lazy screen shows while its chunk loads: a quiet line, no spinner flashing on fast connections. */
export function PageLoading() {
  return (
    <div className="page page-loading" role="status">
      <span className="loading-text">Laddar…</span>
    </div>
  );
}
