/*
 * A fake, not VASSAL code: the VASSAL types the adapter uses, with the stand-ins' signatures and just enough
 * behaviour to run the adapter headless in AdapterTests (chat and log recorded, preferences in memory, the
 * selection a list). Test-only: never in the build outputs, never on a module's class path.
 */
package VASSAL.build.module;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.swing.JPanel;
import javax.swing.text.html.HTMLDocument;
import javax.swing.text.html.HTMLEditorKit;

/**
 * The chat: what was given to show() (html), the text a player reads on screen for it (shown), and sent lines
 * (also to the others and the log). The text on screen is made as VASSAL 3.7.26's Chatter.doShow makes it:
 * the line trimmed; '<' and '>' escaped unless it starts with '-' or '*' (HTML allowed there: with a quick
 * colour, or the module's chatter-HTML option); then inserted as HTML into a Swing HTML document.
 */
public class Chatter extends JPanel {
  private static final long serialVersionUID = 1L;
  public final transient List<String> html = new CopyOnWriteArrayList<>();
  public final transient List<String> shown = new CopyOnWriteArrayList<>();
  public final transient List<String> sent = new CopyOnWriteArrayList<>();

  public void show(String s) {
    html.add(s);
    shown.add(onScreen(s));
  }

  public void send(String msg) {
    show(msg);
    sent.add(msg);
  }

  /** The text VASSAL 3.7.26 puts on screen for a line given to show(). */
  public static String onScreen(String line) {
    String s = line.trim();
    if (!s.startsWith("-") && !s.startsWith("*")) s = s.replaceAll("<", "&lt;").replaceAll(">", "&gt;");
    try {
      HTMLEditorKit kit = new HTMLEditorKit();
      HTMLDocument doc = (HTMLDocument) kit.createDefaultDocument();
      kit.insertHTML(doc, doc.getLength(), "\n<div class=\"msg\">" + s + "</div>", 0, 0, null);
      return doc.getText(0, doc.getLength()).strip();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
