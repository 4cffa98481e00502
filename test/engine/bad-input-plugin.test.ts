/** Every bad input of every kind fails `preview` on the plugin, whose failures travel another way (test/support/bad-input.ts). */
import { describeBadInput } from "../support/bad-input";

describeBadInput("plugin");
