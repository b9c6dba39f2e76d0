package org.arbiter.kit.vassal;

import VASSAL.build.GameModule;
import VASSAL.counters.GamePiece;
import VASSAL.counters.KeyBuffer;
import java.util.List;
import org.arbiter.kit.CommandTemplate;
import org.arbiter.kit.TextLine;

/**
 * A toolbar button that sends any command of the game's ruleset through Arbiter, from a command template
 * with VASSAL properties in it (docs/vassal.md, {@link CommandTemplate}):
 * {@code {"type":"ResolveCombat","payload":{"combatId":"$CombatId$"}}}. A {@code $name$} is the property of
 * that name of the selected piece (when one piece is selected: the button pressed from the piece's menu
 * through a Global Hotkey trait, or with the piece selected), else of the module (its Global Properties and
 * VASSAL's own, e.g. PlayerSide). The result and its receipt go to the log and chat like a roll's; in a
 * beacon game, the acceptance, the sender's check and then the reveal. With no template (the Arbiter
 * extension's generic button), the player types the command, with the same substitution.
 *
 * In a buildFile: {@code <org.arbiter.kit.vassal.ArbiterCommandButton name="Resolve combat" text="Resolve combat"
 * arbiterCommandTemplate="{&quot;type&quot;:&quot;ResolveCombat&quot;,…}" arbiterLabel="combat" arbiterConfirm="true" …/>}.
 */
public class ArbiterCommandButton extends ArbiterButton {
    public static final String TEMPLATE = "arbiterCommandTemplate";
    public static final String LABEL = "arbiterLabel";
    public static final String CONFIRM = "arbiterConfirm";

    private String templateText = "";
    private String label = "";
    private boolean askFirst = true;

    public ArbiterCommandButton() {
        super("Send a command of the game through Arbiter", "Arbiter command");
    }

    public static String getConfigureTypeName() {
        return "Arbiter command button";
    }

    @Override
    protected void pressed() {
        String text = templateText;
        if (text.isEmpty()) { // the extension's generic button: the player writes the command
            text = ask("Command to send (JSON, e.g. {\"type\":\"ResolveCombat\",\"payload\":{\"combatId\":\"c1\"}}; $property$ for a VASSAL property):", "Arbiter command");
            if (text == null || text.isBlank()) return;
        }
        CommandTemplate template;
        try {
            template = CommandTemplate.parse(text);
        } catch (CommandTemplate.TemplateException e) {
            say("✗ Arbiter: " + (templateText.isEmpty() ? "" : "this button's command template is wrong (ask the module's designer): ") + e.getMessage() + "; nothing was sent");
            return;
        }
        List<GamePiece> selected = KeyBuffer.getBuffer().asList();
        if (selected.size() > 1 && !template.propertyNames().isEmpty()) {
            say("✗ Arbiter: " + selected.size() + " pieces are selected; select the one piece this command is for (or none), nothing was sent");
            return;
        }
        GamePiece piece = selected.size() == 1 ? selected.get(0) : null;
        CommandTemplate.Filled command;
        try {
            command = template.fill(name -> {
                Object value = piece == null ? null : piece.getProperty(name);
                if (value == null) value = GameModule.getGameModule().getProperty(name);
                return value == null ? null : value.toString();
            });
        } catch (CommandTemplate.TemplateException e) {
            say("✗ Arbiter: " + e.getMessage() + "; nothing was sent");
            return;
        }
        String what = label.isEmpty() ? command.type : command.type + " " + label;
        if (askFirst && !confirm("Send " + command.type + " " + shown(command.payloadJson) + " to Arbiter?\nThe server resolves it and everyone sees the result.", "Arbiter command")) return;
        Seat s = seat();
        if (s == null) return;
        send(s, command.type, command.payloadJson, what);
    }

    /** The payload as the confirmation shows it: one line that reads left to right, at most 300 characters. */
    static String shown(String payloadJson) {
        String line = TextLine.escape(payloadJson);
        if (line.length() <= 300) return line;
        int end = Character.isHighSurrogate(line.charAt(298)) ? 298 : 299;
        return line.substring(0, end) + "…";
    }

    @Override
    protected String[] ownAttributeNames() {
        return new String[] {TEMPLATE, LABEL, CONFIRM};
    }

    @Override
    protected String[] ownAttributeDescriptions() {
        return new String[] {"Command template (JSON; $property$ for a VASSAL property)", "Label in chat (optional)", "Ask before sending"};
    }

    @Override
    protected Class<?>[] ownAttributeTypes() {
        return new Class<?>[] {String.class, String.class, Boolean.class};
    }

    @Override
    protected boolean setOwnAttribute(String key, String value) {
        if (TEMPLATE.equals(key)) templateText = value.strip();
        else if (LABEL.equals(key)) label = value.strip();
        else if (CONFIRM.equals(key)) askFirst = !"false".equalsIgnoreCase(value.strip());
        else return false;
        return true;
    }

    @Override
    protected String ownAttribute(String key) {
        if (TEMPLATE.equals(key)) return templateText;
        if (LABEL.equals(key)) return label;
        if (CONFIRM.equals(key)) return String.valueOf(askFirst);
        return null;
    }
}
