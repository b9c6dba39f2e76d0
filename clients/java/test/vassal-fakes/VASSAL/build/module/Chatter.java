/*
 * A fake, not VASSAL code: the VASSAL types the adapter uses, with the stand-ins' signatures and just enough
 * behaviour to run the adapter headless in AdapterTests (chat and log recorded, preferences in memory, the
 * selection a list). Test-only: never in the build outputs, never on a module's class path.
 */
package VASSAL.build.module;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.swing.JPanel;

/** The chat: shown lines (this screen) and sent lines (also to the others and the log). */
public class Chatter extends JPanel {
  private static final long serialVersionUID = 1L;
  public final transient List<String> shown = new CopyOnWriteArrayList<>();
  public final transient List<String> sent = new CopyOnWriteArrayList<>();

  public void show(String s) {
    shown.add(s);
  }

  public void send(String msg) {
    shown.add(msg);
    sent.add(msg);
  }
}
