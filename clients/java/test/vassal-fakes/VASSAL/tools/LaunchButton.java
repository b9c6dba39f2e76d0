/*
 * A fake, not VASSAL code: the VASSAL types the adapter uses, with the stand-ins' signatures and just enough
 * behaviour to run the adapter headless in AdapterTests (chat and log recorded, preferences in memory, the
 * selection a list). Test-only: never in the build outputs, never on a module's class path.
 */
package VASSAL.tools;

import java.awt.event.ActionEvent;
import java.awt.event.ActionListener;
import javax.swing.JButton;

public class LaunchButton extends JButton {
  private static final long serialVersionUID = 1L;
  private final transient ActionListener action;

  public LaunchButton(String text, String tooltipAttribute, String textAttribute, String hotkeyAttribute, String iconAttribute, final ActionListener al, boolean allowExpression) {
    super(text);
    action = al;
  }

  /** A press, as the toolbar or a Global Hotkey makes it (only when enabled, as a JButton). */
  public void press() {
    if (isEnabled()) action.actionPerformed(new ActionEvent(this, ActionEvent.ACTION_PERFORMED, "press"));
  }
}
