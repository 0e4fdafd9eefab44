ALTER TABLE `participants` ADD `joins_registration_id` text;--> statement-breakpoint
CREATE INDEX `participants_joins_registration` ON `participants` (`joins_registration_id`);--> statement-breakpoint
-- Issue 39, item 3: a parent whose child registered online buys a companion place at the box office
-- (src/worker/box-office/companion-sale.ts). The sale writes the companion as a box-office row naming the child's
-- registration (`joins_registration_id`); in the very statement that makes the sale's payment PAID (cash and a free
-- place: the insert; Swish: the settlement) the row joins that registration and the registration's version moves
-- on, so a save the family based on the list before it is refused (409) with the list that has the companion, and
-- no save ever drops it (a paid runner is never removed by a save). A payment that ends unpaid leaves the row the
-- box office's own, unpaid: the sale's record, as any box-office sale that was not paid. The statements above are
-- generated; the triggers are written by hand (a unary + keeps SQLite on the runners' ids, not on the index of the
-- rows without a registration).
CREATE TRIGGER `kassa_companion_joins_family_on_insert`
AFTER INSERT ON `payments`
WHEN NEW.`status` = 'PAID' AND NEW.`origin` = 'kassa'
BEGIN
	UPDATE `registrations`
	SET `version` = `version` + 1, `updated_at` = coalesce(NEW.`date_paid`, NEW.`date_created`)
	WHERE `id` IN (
		SELECT `joins_registration_id` FROM `participants`
		WHERE `id` IN (SELECT `value` FROM json_each(NEW.`participant_ids`))
			AND +`registration_id` IS NULL AND +`joins_registration_id` IS NOT NULL);
	UPDATE `participants` SET `registration_id` = `joins_registration_id`
	WHERE `id` IN (SELECT `value` FROM json_each(NEW.`participant_ids`))
		AND +`registration_id` IS NULL
		AND EXISTS (SELECT 1 FROM `registrations` AS `r` WHERE `r`.`id` = `participants`.`joins_registration_id`);
END;--> statement-breakpoint
CREATE TRIGGER `kassa_companion_joins_family_on_settle`
AFTER UPDATE OF `status` ON `payments`
WHEN NEW.`status` = 'PAID' AND OLD.`status` <> 'PAID' AND NEW.`origin` = 'kassa'
BEGIN
	UPDATE `registrations`
	SET `version` = `version` + 1, `updated_at` = coalesce(NEW.`date_paid`, NEW.`settled_at`, NEW.`date_created`)
	WHERE `id` IN (
		SELECT `joins_registration_id` FROM `participants`
		WHERE `id` IN (SELECT `value` FROM json_each(NEW.`participant_ids`))
			AND +`registration_id` IS NULL AND +`joins_registration_id` IS NOT NULL);
	UPDATE `participants` SET `registration_id` = `joins_registration_id`
	WHERE `id` IN (SELECT `value` FROM json_each(NEW.`participant_ids`))
		AND +`registration_id` IS NULL
		AND EXISTS (SELECT 1 FROM `registrations` AS `r` WHERE `r`.`id` = `participants`.`joins_registration_id`);
END;
