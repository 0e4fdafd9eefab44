-- Paid status becomes a runner's (issue 24): each runner is paid by the payment that booked it (`paid_by`, at the
-- price it was booked at, `paid_price`), so a paid family can add a runner later and pay for that one alone with a
-- second payment on the same registration. A refund may deregister runners (`refunds.deregister`,
-- `participants.deregistered_at`). The generated statements come first; the backfill and the triggers below them
-- are written by hand.
ALTER TABLE `participants` ADD `paid_by` text;--> statement-breakpoint
ALTER TABLE `participants` ADD `paid_price` integer;--> statement-breakpoint
ALTER TABLE `participants` ADD `deregistered_at` integer;--> statement-breakpoint
CREATE INDEX `participants_paid_by` ON `participants` (`paid_by`);--> statement-breakpoint
ALTER TABLE `payments` ADD `runner_prices` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
CREATE INDEX `payments_season_origin` ON `payments` (`season`,`origin`);--> statement-breakpoint
ALTER TABLE `refunds` ADD `deregister` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
-- Backfill: a registration paid until now (its payid PAID) becomes runners paid by that payid; a box-office runner
-- becomes paid by the PAID box-office payment that names it. The price is known here where the payment covered one
-- runner or cost nothing; otherwise the Worker derives it from the payment (registration/registration-view.ts).
UPDATE `participants` SET `paid_by` = (
	SELECT `r`.`payid` FROM `registrations` AS `r` JOIN `payments` AS `pay` ON `pay`.`id` = `r`.`payid`
	WHERE `r`.`id` = `participants`.`registration_id` AND `pay`.`status` = 'PAID'
) WHERE `registration_id` IS NOT NULL;--> statement-breakpoint
UPDATE `participants` SET `paid_by` = (
	SELECT `pay`.`id` FROM `payments` AS `pay`, json_each(`pay`.`participant_ids`) AS `j`
	WHERE `pay`.`origin` = 'kassa' AND `pay`.`status` = 'PAID' AND `j`.`value` = `participants`.`id`
	ORDER BY `pay`.`date_created`, `pay`.`id` LIMIT 1
) WHERE `registration_id` IS NULL;--> statement-breakpoint
UPDATE `participants` SET `paid_price` = (
	SELECT CASE WHEN `pay`.`amount` = 0 THEN 0 WHEN json_array_length(`pay`.`participant_ids`) = 1 THEN `pay`.`amount` END
	FROM `payments` AS `pay` WHERE `pay`.`id` = `participants`.`paid_by`
) WHERE `paid_by` IS NOT NULL;--> statement-breakpoint
-- A payment's runners become paid in the very statement that makes the payment PAID, whoever writes it (a Swish
-- settlement, a free campaign order, the box office): nothing can leave a PAID payment with unpaid runners, and
-- only the first payment to be PAID for a runner books it (`paid_by IS NULL`). A payment is PAID once and for good.
CREATE TRIGGER `participants_paid_on_insert`
AFTER INSERT ON `payments`
WHEN NEW.`status` = 'PAID'
BEGIN
	UPDATE `participants`
	SET `paid_by` = NEW.`id`,
		`paid_price` = coalesce(
			(SELECT `value` FROM json_each(NEW.`runner_prices`) WHERE `key` = `participants`.`id`),
			CASE WHEN NEW.`amount` = 0 THEN 0 WHEN json_array_length(NEW.`participant_ids`) = 1 THEN NEW.`amount` END)
	WHERE `id` IN (SELECT `value` FROM json_each(NEW.`participant_ids`)) AND `paid_by` IS NULL;
END;--> statement-breakpoint
CREATE TRIGGER `participants_paid_on_settle`
AFTER UPDATE OF `status` ON `payments`
WHEN NEW.`status` = 'PAID' AND OLD.`status` <> 'PAID'
BEGIN
	UPDATE `participants`
	SET `paid_by` = NEW.`id`,
		`paid_price` = coalesce(
			(SELECT `value` FROM json_each(NEW.`runner_prices`) WHERE `key` = `participants`.`id`),
			CASE WHEN NEW.`amount` = 0 THEN 0 WHEN json_array_length(NEW.`participant_ids`) = 1 THEN NEW.`amount` END)
	WHERE `id` IN (SELECT `value` FROM json_each(NEW.`participant_ids`)) AND `paid_by` IS NULL;
END;--> statement-breakpoint
-- A campaign code's use belongs to the runners an order pays for (src/worker/campaigns/campaigns-db.ts holdsUse):
-- orders of a registration that cover some of the same runners (booking again, a payment for runners paid a moment
-- ago) share one use, while a late sibling's order is for other runners and claims one of its own even though the
-- first payment, PAID, keeps its use. So a failed order gives its use back unless another open or paid order of the
-- registration with the code covers one of its runners; 0008's trigger kept it whenever any open or paid order of
-- the registration had the code, which would never give back a failed late sibling's use.
DROP TRIGGER IF EXISTS `campaign_release_on_failed_order`;--> statement-breakpoint
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
				AND EXISTS (
					SELECT 1 FROM json_each(`held`.`participant_ids`) AS `covered`
					WHERE `covered`.`value` IN (SELECT `value` FROM json_each(NEW.`participant_ids`))
				)
		);
END;
