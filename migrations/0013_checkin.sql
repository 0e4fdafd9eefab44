ALTER TABLE `participants` ADD `picked_up_at` integer;--> statement-breakpoint
ALTER TABLE `registrations` ADD `checkin_token` text;--> statement-breakpoint
CREATE UNIQUE INDEX `registrations_checkin_token` ON `registrations` (`checkin_token`);--> statement-breakpoint
-- A box-office Swish sale that ends unpaid (declined, failed, withdrawn, given up) lets go of the bibs typed for it
-- in the same statement that settles it: its runners never joined a race, and the number they asked for is free for
-- others (src/worker/box-office/box-office.ts), so it must not stay written on their race-less rows either.
-- The number asked for is kept in the sale's audit line (`kassa.quickreg`).
CREATE TRIGGER `kassa_release_bibs_on_failed_order`
AFTER UPDATE OF `status` ON `payments`
WHEN OLD.`status` = 'CREATED' AND NEW.`status` IN ('DECLINED', 'ERROR', 'CANCELLED') AND NEW.`origin` = 'kassa'
BEGIN
	UPDATE `participants` SET `bib` = NULL
	WHERE `id` IN (SELECT `value` FROM json_each(NEW.`participant_ids`)) AND `race_id` IS NULL AND `paid_by` IS NULL;
END;--> statement-breakpoint
-- Sales that ended unpaid before this migration let go of their bibs now.
UPDATE `participants` SET `bib` = NULL
WHERE `race_id` IS NULL AND `paid_by` IS NULL AND `registration_id` IS NULL AND `bib` IS NOT NULL AND `id` IN (
	SELECT `value` FROM `payments`, json_each(`payments`.`participant_ids`)
	WHERE `payments`.`origin` = 'kassa' AND `payments`.`status` IN ('DECLINED', 'ERROR', 'CANCELLED'));
