CREATE INDEX `email_log_with_body` ON `email_log` (`created_at`) WHERE ("email_log"."html" <> '' OR "email_log"."text" <> '');--> statement-breakpoint
CREATE INDEX `login_codes_created` ON `login_codes` (`created_at`);--> statement-breakpoint
CREATE INDEX `login_failures_at` ON `login_failures` (`at`);--> statement-breakpoint
CREATE INDEX `sessions_expires` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE INDEX `sessions_revoked` ON `sessions` (`revoked_at`);