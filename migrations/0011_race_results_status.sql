ALTER TABLE `races` ADD `results_status` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `races` ADD `results_official_at` integer;