CREATE TABLE `refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`payid` text NOT NULL,
	`season` integer NOT NULL,
	`amount` integer NOT NULL,
	`status` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`callback_identifier` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`date_paid` integer,
	`payment_reference` text,
	`error_code` text,
	`error_message` text,
	`settled_at` integer,
	FOREIGN KEY (`payid`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "refunds_id" CHECK(length("refunds"."id") = 32 AND "refunds"."id" NOT GLOB '*[^0-9A-F]*'),
	CONSTRAINT "refunds_status" CHECK("refunds"."status" IN ('CREATED', 'PAID', 'ERROR')),
	CONSTRAINT "refunds_amount" CHECK("refunds"."amount" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `refunds_idempotency_key` ON `refunds` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `refunds_payid_status` ON `refunds` (`payid`,`status`);--> statement-breakpoint
CREATE INDEX `refunds_season` ON `refunds` (`season`);--> statement-breakpoint
CREATE INDEX `refunds_status_created` ON `refunds` (`status`,`created_at`);
