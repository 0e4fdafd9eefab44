CREATE TABLE `results_mails` (
	`registration_id` text NOT NULL,
	`race_id` text NOT NULL,
	`results` text NOT NULL,
	`mailed_at` integer NOT NULL,
	PRIMARY KEY(`registration_id`, `race_id`),
	FOREIGN KEY (`registration_id`) REFERENCES `registrations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `results` ADD `age` integer;