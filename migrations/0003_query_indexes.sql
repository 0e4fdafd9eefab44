DROP INDEX `payments_registration`;--> statement-breakpoint
CREATE INDEX `payments_registration_status` ON `payments` (`registration_id`,`status`);--> statement-breakpoint
CREATE INDEX `payments_status_settled` ON `payments` (`status`,`settled_at`);--> statement-breakpoint
CREATE INDEX `audit_log_action_subject` ON `audit_log` (`action`,`subject`);--> statement-breakpoint
CREATE INDEX `registrations_email_season` ON `registrations` (`email`,`season`);