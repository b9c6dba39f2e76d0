package org.arbiter.kit.vassal;

import org.arbiter.kit.Canonical;

/**
 * A toolbar button that rolls dice through Arbiter (docs/vassal.md): it asks what the roll is for,
 * and sends {@code Roll} with the dice expression and that purpose. Everything it relies on — the
 * HTTP client, the receipt checks, the key log walk, the log line codec, the pending-roll rule — is
 * in the plain-JDK kit (org.arbiter.kit), which `npm run test:java` tests against a real server;
 * {@link ArbiterButton} wires it into VASSAL.
 *
 * In a buildFile it is an element named by the class: in a module, under the module's root; in the
 * Arbiter extension, inside a {@code VASSAL.build.module.ExtensionElement target=""}:
 * {@code <org.arbiter.kit.vassal.ArbiterDiceButton name="Arbiter roll" text="Arbiter roll"
 * arbiterPinnedFingerprints="ed25519:…" arbiterKeys="{…}" arbiterDice="2d6" arbiterCommandType="Roll"/>}.
 */
public class ArbiterDiceButton extends ArbiterButton {
    public static final String DICE = "arbiterDice";
    public static final String COMMAND_TYPE = "arbiterCommandType";

    private String dice = "2d6";
    private String commandType = "Roll";

    public ArbiterDiceButton() {
        super("Roll through Arbiter", "Arbiter roll");
    }

    public static String getConfigureTypeName() {
        return "Arbiter dice button";
    }

    @Override
    protected void pressed() {
        Seat s = seat();
        if (s == null) return;
        String purpose = ask("What is this roll for?", "Arbiter roll");
        if (purpose == null || purpose.isBlank()) return;
        String payload;
        try {
            payload = "{\"dice\":" + Canonical.write(dice) + ",\"purpose\":" + Canonical.write(purpose.strip()) + "}";
        } catch (Canonical.CanonicalException e) {
            say("✗ Arbiter: " + e.getMessage());
            return;
        }
        send(s, commandType, payload, commandType + " " + dice);
    }

    @Override
    protected String[] ownAttributeNames() {
        return new String[] {DICE, COMMAND_TYPE};
    }

    @Override
    protected String[] ownAttributeDescriptions() {
        return new String[] {"Dice (e.g. 2d6, 3d6+1)", "Command type (Roll; for other commands use an Arbiter command button)"};
    }

    @Override
    protected Class<?>[] ownAttributeTypes() {
        return new Class<?>[] {String.class, String.class};
    }

    @Override
    protected boolean setOwnAttribute(String key, String value) {
        if (DICE.equals(key)) dice = value.strip();
        else if (COMMAND_TYPE.equals(key)) commandType = value.strip().isEmpty() ? "Roll" : value.strip();
        else return false;
        return true;
    }

    @Override
    protected String ownAttribute(String key) {
        if (DICE.equals(key)) return dice;
        if (COMMAND_TYPE.equals(key)) return commandType;
        return null;
    }
}
