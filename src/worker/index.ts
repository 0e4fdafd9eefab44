import { createApp } from "./app";

export { PaymentDO } from "../durable/payment";
export { RaceDO } from "../durable/race";

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
