-- Issue 43, item 2: every login mail also carries a one-time sign-in link (src/worker/session/login-codes-db.ts),
-- stored as a keyed hash beside the code it was mailed with; rows from before this migration have no link.
ALTER TABLE `login_codes` ADD `link_hash` text;--> statement-breakpoint
CREATE UNIQUE INDEX `login_codes_link` ON `login_codes` (`link_hash`);
