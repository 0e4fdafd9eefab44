CREATE TABLE `login_failures` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`code_id` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `login_failures_email` ON `login_failures` (`email`,`at`);--> statement-breakpoint
ALTER TABLE `login_codes` ADD `replaced_at` integer;