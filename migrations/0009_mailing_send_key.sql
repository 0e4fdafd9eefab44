ALTER TABLE `mailings` ADD `send_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `mailings_send_key` ON `mailings` (`send_key`);