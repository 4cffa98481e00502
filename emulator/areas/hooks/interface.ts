/**
 * What the rest of the emulator may know of hooks: the log of what they sent or would have sent,
 * with the timeout of web deliveries, which `/_emulator/hook-deliveries` shows and sets.
 */

export { deliveriesOf, DELIVERY_TIMEOUT_MS } from "./deliveries";
