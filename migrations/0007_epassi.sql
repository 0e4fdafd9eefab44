-- Epassi invitations (src/worker/epassi.ts): campaign codes of rule 'epassi', whether each invitation's e-mail
-- left, the orders that used a code found by their code, and the use of an 'epassi' code given back when the order
-- holding it ends unpaid.
--
-- campaign_codes is rebuilt because SQLite cannot change a CHECK constraint; no table refers to it.
CREATE TABLE `__new_campaign_codes` (
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
	CONSTRAINT "campaign_codes_code_upper" CHECK("code" = upper("code") AND length("code") BETWEEN 1 AND 40),
	CONSTRAINT "campaign_codes_rule" CHECK("rule" IN ('flat50', 'free', 'minus50', 'epassi')),
	CONSTRAINT "campaign_codes_uses" CHECK("uses" >= 0 AND ("max_uses" IS NULL OR "uses" <= "max_uses"))
);
--> statement-breakpoint
INSERT INTO `__new_campaign_codes`("code", "rule", "valid_until", "max_uses", "uses", "disabled", "builtin", "note", "created_at", "created_by")
	SELECT "code", "rule", "valid_until", "max_uses", "uses", "disabled", "builtin", "note", "created_at", "created_by" FROM `campaign_codes`;--> statement-breakpoint
DROP TABLE `campaign_codes`;--> statement-breakpoint
ALTER TABLE `__new_campaign_codes` RENAME TO `campaign_codes`;--> statement-breakpoint
ALTER TABLE `epassi_invitations` ADD `sent_at` integer;--> statement-breakpoint
ALTER TABLE `epassi_invitations` ADD `send_error` text;--> statement-breakpoint
CREATE INDEX `payments_kampanj` ON `payments` (`kampanj`,`status`);--> statement-breakpoint
-- An order holds its 'epassi' code's one use from booking (the claim in db/campaigns.ts) while it is CREATED or
-- PAID. The statement that settles it as DECLINED, ERROR or CANCELLED (only ever from CREATED, and only once: the
-- conditional UPDATE of db/payments.ts settlePaymentRow) gives the use back here, in the same statement, so no
-- crash can leave a failed order holding it. Not when another open or paid order of the same registration still
-- holds the code (that order took no use of its own: the claim counts once per registration).
CREATE TRIGGER `epassi_release_on_failed_order`
AFTER UPDATE OF `status` ON `payments`
WHEN OLD.`status` = 'CREATED' AND NEW.`status` IN ('DECLINED', 'ERROR', 'CANCELLED') AND NEW.`kampanj` IS NOT NULL
BEGIN
	UPDATE `campaign_codes` SET `uses` = `uses` - 1
	WHERE `code` = NEW.`kampanj` AND `rule` = 'epassi' AND `uses` > 0
		AND NOT EXISTS (
			SELECT 1 FROM `payments` AS `held`
			WHERE `held`.`registration_id` = NEW.`registration_id` AND `held`.`kampanj` = NEW.`kampanj`
				AND `held`.`status` IN ('CREATED', 'PAID') AND `held`.`id` <> NEW.`id`
		);
END;
