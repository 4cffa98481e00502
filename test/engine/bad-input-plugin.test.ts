/** Every bad input of every kind is refused by the plugin's Check, whose failures travel another way, and one per kind fails `preview` (test/support/bad-input.ts). */
import { describeBadInput } from "../support/bad-input";

describeBadInput("plugin");
