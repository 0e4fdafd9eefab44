/** Swedish words shared by the server's messages and the phones' texts. */

/** 'A', 'A och B', 'A, B och C'. */
export function listText(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} och ${items.at(-1)}`;
}
