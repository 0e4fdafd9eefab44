-- Issue 28, item 6: an adult running with a child of the family without competing (src/shared/companion.ts).
-- The CHECK is the column's own (SQLite adds a column constraint without rebuilding the table and its triggers).
ALTER TABLE `participants` ADD `companion` integer DEFAULT 0 NOT NULL CHECK (`companion` IN (0, 1));
