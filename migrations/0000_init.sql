CREATE TABLE `admins` (
	`email` text PRIMARY KEY NOT NULL,
	`added_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`actor` text NOT NULL,
	`device` text,
	`action` text NOT NULL,
	`subject` text,
	`detail` text DEFAULT '{}' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_log_at` ON `audit_log` (`at`);--> statement-breakpoint
CREATE TABLE `campaign_codes` (
	`code` text PRIMARY KEY NOT NULL,
	`rule` text NOT NULL,
	`valid_until` integer,
	`max_uses` integer,
	`uses` integer DEFAULT 0 NOT NULL,
	`disabled` integer DEFAULT false NOT NULL,
	`builtin` integer DEFAULT false NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`created_by` text,
	CONSTRAINT "campaign_codes_code_upper" CHECK("campaign_codes"."code" = upper("campaign_codes"."code") AND length("campaign_codes"."code") BETWEEN 1 AND 40),
	CONSTRAINT "campaign_codes_rule" CHECK("campaign_codes"."rule" IN ('flat50', 'free', 'minus50')),
	CONSTRAINT "campaign_codes_uses" CHECK("campaign_codes"."uses" >= 0 AND ("campaign_codes"."max_uses" IS NULL OR "campaign_codes"."uses" <= "campaign_codes"."max_uses"))
);
--> statement-breakpoint
CREATE TABLE `course_records` (
	`distance` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`time_ms` integer NOT NULL,
	`year` integer NOT NULL,
	CONSTRAINT "course_records_distance" CHECK("course_records"."distance" IN ('0.8', '1.6', '2.8', '5.6'))
);
--> statement-breakpoint
CREATE TABLE `email_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`to` text NOT NULL,
	`subject` text NOT NULL,
	`html` text NOT NULL,
	`text` text NOT NULL,
	`kind` text NOT NULL,
	`transport` text NOT NULL,
	`status` text NOT NULL,
	`error` text,
	`mailing_id` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `email_log_created` ON `email_log` (`created_at`);--> statement-breakpoint
CREATE TABLE `epassi_invitations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`code` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `epassi_invitations_email` ON `epassi_invitations` (`email`);--> statement-breakpoint
CREATE TABLE `gallery_images` (
	`year` integer NOT NULL,
	`position` integer NOT NULL,
	`url` text NOT NULL,
	PRIMARY KEY(`year`, `position`)
);
--> statement-breakpoint
CREATE TABLE `login_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`code_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`used_at` integer,
	`client_key` text
);
--> statement-breakpoint
CREATE INDEX `login_codes_email` ON `login_codes` (`email`,`created_at`);--> statement-breakpoint
CREATE TABLE `mailing_recipients` (
	`mailing_id` integer NOT NULL,
	`email` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`race` text,
	`status` text DEFAULT 'queued' NOT NULL,
	`claimed_at` integer,
	`sent_at` integer,
	`error` text,
	PRIMARY KEY(`mailing_id`, `email`),
	FOREIGN KEY (`mailing_id`) REFERENCES `mailings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `mailing_recipients_status` ON `mailing_recipients` (`mailing_id`,`status`);--> statement-breakpoint
CREATE TABLE `mailings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`audience` text NOT NULL,
	`subject` text NOT NULL,
	`message` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`total_recipients` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `participants` (
	`id` text PRIMARY KEY NOT NULL,
	`registration_id` text,
	`season` integer NOT NULL,
	`firstname` text NOT NULL,
	`lastname` text NOT NULL,
	`age` integer NOT NULL,
	`company` text DEFAULT '' NOT NULL,
	`distance` text NOT NULL,
	`group` text DEFAULT 'Ingen' NOT NULL,
	`bib` integer,
	`race_id` text,
	`phone` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`registration_id`) REFERENCES `registrations`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "participants_distance" CHECK("participants"."distance" IN ('0.8', '1.6', '2.8', '5.6')),
	CONSTRAINT "participants_group" CHECK("participants"."group" IN ('Ingen', 'Dam', 'Herr')),
	CONSTRAINT "participants_age" CHECK("participants"."age" BETWEEN 0 AND 130),
	CONSTRAINT "participants_bib" CHECK("participants"."bib" IS NULL OR "participants"."bib" >= 0)
);
--> statement-breakpoint
CREATE INDEX `participants_registration` ON `participants` (`registration_id`);--> statement-breakpoint
CREATE INDEX `participants_race` ON `participants` (`race_id`);--> statement-breakpoint
CREATE INDEX `participants_season` ON `participants` (`season`,`distance`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` text PRIMARY KEY NOT NULL,
	`registration_id` text,
	`season` integer NOT NULL,
	`origin` text DEFAULT 'registration' NOT NULL,
	`amount` integer NOT NULL,
	`currency` text DEFAULT 'SEK' NOT NULL,
	`status` text NOT NULL,
	`date_created` integer NOT NULL,
	`date_paid` integer,
	`payment_reference` text,
	`payer_alias` text,
	`payee_alias` text,
	`error_code` text,
	`error_message` text,
	`token` text,
	`callback_identifier` text,
	`payee_payment_reference` text,
	`message` text,
	`kampanj` text,
	`barn` integer DEFAULT 0 NOT NULL,
	`vuxna` integer DEFAULT 0 NOT NULL,
	`participant_ids` text DEFAULT '[]' NOT NULL,
	`settled_at` integer,
	FOREIGN KEY (`registration_id`) REFERENCES `registrations`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "payments_id" CHECK((length("payments"."id") = 32 AND "payments"."id" NOT GLOB '*[^0-9A-F]*') OR "payments"."id" GLOB 'kampanj_?*_?*'),
	CONSTRAINT "payments_status" CHECK("payments"."status" IN ('CREATED', 'PAID', 'DECLINED', 'ERROR', 'CANCELLED')),
	CONSTRAINT "payments_amounts" CHECK("payments"."amount" >= 0 AND "payments"."barn" >= 0 AND "payments"."vuxna" >= 0)
);
--> statement-breakpoint
CREATE INDEX `payments_registration` ON `payments` (`registration_id`);--> statement-breakpoint
CREATE INDEX `payments_status` ON `payments` (`status`,`date_created`);--> statement-breakpoint
CREATE TABLE `races` (
	`part` text PRIMARY KEY NOT NULL,
	`season` integer NOT NULL,
	`date` text NOT NULL,
	`distance` integer NOT NULL,
	`start_time` text,
	`open_for_reg` integer DEFAULT false NOT NULL,
	`state` text DEFAULT '' NOT NULL,
	`started` integer,
	CONSTRAINT "races_part" CHECK("races"."part" GLOB 'race-?*-?*'),
	CONSTRAINT "races_state" CHECK("races"."state" IN ('', 'started', 'ended')),
	CONSTRAINT "races_distance" CHECK("races"."distance" > 0 AND "races"."distance" % 100 = 0)
);
--> statement-breakpoint
CREATE INDEX `races_season` ON `races` (`season`);--> statement-breakpoint
CREATE TABLE `registrations` (
	`id` text PRIMARY KEY NOT NULL,
	`season` integer NOT NULL,
	`email` text NOT NULL,
	`payid` text,
	`version` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	CONSTRAINT "registrations_email_lower" CHECK("registrations"."email" = lower("registrations"."email") AND "registrations"."email" LIKE '%_@_%')
);
--> statement-breakpoint
CREATE UNIQUE INDEX `registrations_season_email` ON `registrations` (`season`,`email`);--> statement-breakpoint
CREATE TABLE `results` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`year` integer NOT NULL,
	`distance` text NOT NULL,
	`place` integer NOT NULL,
	`name` text NOT NULL,
	`time_ms` integer NOT NULL,
	`klass` text DEFAULT '' NOT NULL,
	`bib` integer,
	`club` text DEFAULT '' NOT NULL,
	CONSTRAINT "results_distance" CHECK("results"."distance" IN ('0.8', '1.6', '2.8', '5.6')),
	CONSTRAINT "results_values" CHECK("results"."place" >= 1 AND "results"."time_ms" > 0)
);
--> statement-breakpoint
CREATE INDEX `results_year_distance` ON `results` (`year`,`distance`,`place`);--> statement-breakpoint
CREATE INDEX `results_distance_time` ON `results` (`distance`,`time_ms`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`email` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	CONSTRAINT "sessions_kind" CHECK("sessions"."kind" IN ('visitor', 'admin'))
);
--> statement-breakpoint
CREATE INDEX `sessions_email` ON `sessions` (`email`);--> statement-breakpoint
CREATE TABLE `unsubscribes` (
	`email` text PRIMARY KEY NOT NULL,
	`at` integer NOT NULL,
	`mailing_id` integer
);
