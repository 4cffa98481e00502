/** What other areas may know of deliveries: how a job a delivery started names its creator. */

export { deliveryCreatorJson } from "./json";
