ALTER TABLE `payments` ADD `cash` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `method` text GENERATED ALWAYS AS (CASE WHEN instr("id", 'kampanj') > 0 THEN 'kampanj' WHEN "cash" THEN 'kontant' ELSE 'swish' END) VIRTUAL;
