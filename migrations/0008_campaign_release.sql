-- Every campaign code's use is given back when the order holding it ends unpaid, not only an Epassi code's
-- (src/worker/campaigns/campaigns-db.ts): a capped code is not used up by checkouts that were abandoned, declined,
-- failed, withdrawn or given up, while of two families booking its last use at the same moment only one gets it
-- (the claim when the order is booked is unchanged).
--
-- The trigger of 0007 is replaced by one for every code. The statement that settles an order as DECLINED, ERROR or
-- CANCELLED (only ever from CREATED, and only once: the conditional UPDATE of payments-db.ts settlePaymentRow)
-- gives the use back in the same statement, so no crash can leave a failed order holding it. Not when another open
-- or paid order of the same registration still holds the code (that order took no use of its own: the claim counts
-- once per registration). A PAID order keeps its use.
DROP TRIGGER IF EXISTS `epassi_release_on_failed_order`;--> statement-breakpoint
CREATE TRIGGER `campaign_release_on_failed_order`
AFTER UPDATE OF `status` ON `payments`
WHEN OLD.`status` = 'CREATED' AND NEW.`status` IN ('DECLINED', 'ERROR', 'CANCELLED') AND NEW.`kampanj` IS NOT NULL
BEGIN
	UPDATE `campaign_codes` SET `uses` = `uses` - 1
	WHERE `code` = NEW.`kampanj` AND `uses` > 0
		AND NOT EXISTS (
			SELECT 1 FROM `payments` AS `held`
			WHERE `held`.`registration_id` = NEW.`registration_id` AND `held`.`kampanj` = NEW.`kampanj`
				AND `held`.`status` IN ('CREATED', 'PAID') AND `held`.`id` <> NEW.`id`
		);
END;--> statement-breakpoint
-- Uses that orders which ended unpaid took before this migration (only Epassi codes gave theirs back) are given
-- back now: a code's uses become the orders that hold one, one per registration (box-office orders, which have no
-- registration, one each). Only ever lowered, so a count written some other way is never raised past a cap.
UPDATE `campaign_codes` SET `uses` = min(`uses`,
	(SELECT count(DISTINCT `registration_id`) FROM `payments`
		WHERE `kampanj` = `campaign_codes`.`code` AND `status` IN ('CREATED', 'PAID') AND `registration_id` IS NOT NULL)
	+ (SELECT count(*) FROM `payments`
		WHERE `kampanj` = `campaign_codes`.`code` AND `status` IN ('CREATED', 'PAID') AND `registration_id` IS NULL));
