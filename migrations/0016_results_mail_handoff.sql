ALTER TABLE `mailings` ADD `handed_at` integer;--> statement-breakpoint
ALTER TABLE `mailings` ADD `resuming_at` integer;--> statement-breakpoint
ALTER TABLE `results_mails` ADD `mailing_id` integer;--> statement-breakpoint
CREATE INDEX `results_mails_race` ON `results_mails` (`race_id`,`mailing_id`);--> statement-breakpoint
CREATE INDEX `mailing_recipients_open` ON `mailing_recipients` (`status`,`mailing_id`);