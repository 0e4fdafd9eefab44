CREATE INDEX `email_log_to` ON `email_log` (`to`);--> statement-breakpoint
CREATE INDEX `mailing_recipients_email` ON `mailing_recipients` (`email`);
