-- Issue 43, item 1: two admin roles. Every admin named before this migration becomes an organiser ('Arrangör'):
-- until now every admin could do everything, and a silent demotion could leave the club without anyone who can
-- refund or export on race morning; an organiser demotes whom they want on /admin/behorigheter. (drizzle-kit
-- rebuilds the table for the CHECK; the copy names the role, which the old table did not have.)
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_admins` (
	`email` text PRIMARY KEY NOT NULL,
	`added_at` integer NOT NULL,
	`role` text DEFAULT 'organiser' NOT NULL,
	CONSTRAINT "admins_role" CHECK("role" IN ('volunteer', 'organiser'))
);
--> statement-breakpoint
INSERT INTO `__new_admins`("email", "added_at", "role") SELECT "email", "added_at", 'organiser' FROM `admins`;--> statement-breakpoint
DROP TABLE `admins`;--> statement-breakpoint
ALTER TABLE `__new_admins` RENAME TO `admins`;--> statement-breakpoint
PRAGMA foreign_keys=ON;