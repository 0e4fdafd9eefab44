/**
 * The SQL of an import by command (scripts/import-results.mjs), for `wrangler d1 execute --file`: the statements
 * that replace one year's results on one distance, or every course record. Rows come already checked by the shared
 * file rules; values are written as SQL literals (text quoted, numbers checked), since a file of statements has
 * no bound parameters. Keep in step with the tables in src/worker/db/schema.ts (results, course_records).
 */

/** Rows per INSERT: keeps each statement far below D1's 100 kB statement limit. */
export const ROWS_PER_INSERT = 50;

export function sqlText(s) {
  return `'${String(s).replaceAll("'", "''")}'`;
}

function sqlInt(n) {
  if (!Number.isSafeInteger(n)) throw new RangeError(`Inte ett heltal: ${n}`);
  return String(n);
}

const sqlIntOrNull = (n) => (n === null ? "NULL" : sqlInt(n));

/**
 * DELETE the year's distance, then INSERT the rows in chunks. `age` is the line's age for child-safe publishing:
 * the file's, or its age class's (src/shared/child-safe.ts resultAge, which the caller passes in).
 */
export function resultsSql(year, distance, rows, resultAge = (r) => r.age ?? null) {
  const statements = [`DELETE FROM results WHERE year = ${sqlInt(year)} AND distance = ${sqlText(distance)};`];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const values = rows
      .slice(i, i + ROWS_PER_INSERT)
      .map(
        (r) =>
          `(${[
            sqlInt(year),
            sqlText(distance),
            sqlInt(r.place),
            sqlText(r.name),
            sqlInt(r.timeMs),
            sqlText(r.klass),
            sqlIntOrNull(r.bib),
            sqlText(r.club),
            sqlIntOrNull(resultAge(r)),
          ].join(", ")})`,
      );
    statements.push(
      `INSERT INTO results (year, distance, place, name, time_ms, klass, bib, club, age) VALUES\n${values.join(",\n")};`,
    );
  }
  return statements.join("\n") + "\n";
}

/** Every stored record replaced by these. */
export function recordsSql(rows) {
  const statements = ["DELETE FROM course_records;"];
  if (rows.length > 0) {
    const values = rows.map(
      (r) => `(${[sqlText(r.distance), sqlText(r.name), sqlInt(r.timeMs), sqlInt(r.year)].join(", ")})`,
    );
    statements.push(`INSERT INTO course_records (distance, name, time_ms, year) VALUES\n${values.join(",\n")};`);
  }
  return statements.join("\n") + "\n";
}
