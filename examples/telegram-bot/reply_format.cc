#include "reply_format.h"

#include <algorithm>
#include <array>
#include <vector>

namespace scamcheck::telegram_bot {
namespace {

// Per text: English, German. kStart and kHelp are HTML.
struct Entry {
  std::string_view en;
  std::string_view de;
};

constexpr std::array<Entry, 13> kTexts = {{
    // kStart
    {"👋 <b>Hi! I check messages for scams.</b>\n\n"
     "Forward me a suspicious message, paste its text or a link, or send a screenshot. "
     "I answer with a verdict, the words and links that gave it away, and what to do.\n\n"
     "/help shows what I can check.",
     "👋 <b>Hallo! Ich prüfe Nachrichten auf Betrug.</b>\n\n"
     "Leiten Sie mir eine verdächtige Nachricht weiter, fügen Sie ihren Text oder einen Link "
     "ein oder schicken Sie einen Screenshot. Ich antworte mit einer Einschätzung, den "
     "Wörtern und Links, die auffallen, und was Sie tun sollten.\n\n"
     "/help zeigt, was ich prüfen kann."},
    // kHelp
    {"<b>What I can check</b>\n"
     "• a forwarded or pasted message (SMS, e-mail, chat)\n"
     "• a link sent on its own\n"
     "• a screenshot or photo, or an image or PDF file (up to 10 MB)\n\n"
     "The check runs on this bot's server; your message is not stored.\n\n"
     "/start: introduction\n/help: this help",
     "<b>Was ich prüfen kann</b>\n"
     "• eine weitergeleitete oder eingefügte Nachricht (SMS, E-Mail, Chat)\n"
     "• einen einzelnen Link\n"
     "• einen Screenshot oder ein Foto, oder eine Bild- oder PDF-Datei (bis 10 MB)\n\n"
     "Die Prüfung läuft auf dem Server dieses Bots; Ihre Nachricht wird nicht gespeichert.\n\n"
     "/start: Einführung\n/help: diese Hilfe"},
    // kUnsupported
    {"I can check text, links, screenshots, photos and image or PDF files. "
     "Send /help for details.",
     "Ich kann Texte, Links, Screenshots, Fotos sowie Bild- und PDF-Dateien prüfen. "
     "Mehr mit /help."},
    // kFileTooBig
    {"This file is too big to check (the limit is 10 MB).",
     "Diese Datei ist zu groß zum Prüfen (höchstens 10 MB)."},
    // kFileUnreadable
    {"I could not read this file. Please send it again, or send a screenshot or the text.",
     "Ich konnte diese Datei nicht lesen. Bitte schicken Sie sie noch einmal, oder einen "
     "Screenshot oder den Text."},
    // kOcrUnavailable
    {"I cannot read pictures right now. Please paste the text of the message instead.",
     "Ich kann gerade keine Bilder lesen. Bitte fügen Sie stattdessen den Text der Nachricht ein."},
    // kCheckFailed
    {"Sorry, I could not check this message.",
     "Entschuldigung, ich konnte diese Nachricht nicht prüfen."},
    // kWhy
    {"Why", "Warum"},
    // kWhatToDo
    {"What to do", "Was tun"},
    // kMoreSignals
    {"… and {n} more signs", "… und {n} weitere Hinweise"},
    // kRisk
    {"risk", "Risiko"},
    // kFromPicture
    {"Checked: the picture", "Geprüft: das Bild"},
    // kFromCaption
    {"Checked: the caption", "Geprüft: die Bildunterschrift"},
}};

std::size_t sequence_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead >> 5) == 0x6) return 2;
  if ((lead >> 4) == 0xE) return 3;
  if ((lead >> 3) == 0x1E) return 4;
  return 1;  // a stray byte: counted alone
}

std::string_view escape_of(char c) {
  switch (c) {
    case '&':
      return "&amp;";
    case '<':
      return "&lt;";
    case '>':
      return "&gt;";
    case '"':
      return "&quot;";
    default:
      return {};
  }
}

// html_escape(text), cut at a character boundary so that the result has
// at most `max_units` UTF-16 code units; a cut text ends with "…".
std::string escape_within(std::string_view text, std::size_t max_units) {
  std::string out;
  std::size_t units = 0;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n =
        std::min(sequence_length(static_cast<unsigned char>(text[i])), text.size() - i);
    const std::string_view escaped = n == 1 ? escape_of(text[i]) : std::string_view{};
    const std::size_t add = !escaped.empty() ? escaped.size() : (n == 4 ? 2 : 1);
    if (units + add + 1 > max_units && i + n < text.size()) {  // keep room for "…"
      out += "…";
      return out;
    }
    if (units + add > max_units) {
      out += "…";
      return out;
    }
    if (!escaped.empty()) {
      out += escaped;
    } else {
      out.append(text.substr(i, n));
    }
    units += add;
    i += n;
  }
  return out;
}

}  // namespace

Language language_for(std::string_view language_code, std::string_view fallback) {
  const std::string_view code = language_code.empty() ? fallback : language_code;
  const bool german = code.size() >= 2 && (code[0] == 'd' || code[0] == 'D') &&
                      (code[1] == 'e' || code[1] == 'E') &&
                      (code.size() == 2 || code[2] == '-' || code[2] == '_');
  return german ? Language::kGerman : Language::kEnglish;
}

std::string_view locale_of(Language language) {
  return language == Language::kGerman ? "de" : "en";
}

std::string_view text(Language language, Text which) {
  const Entry& entry = kTexts[static_cast<std::size_t>(which)];
  return language == Language::kGerman ? entry.de : entry.en;
}

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const std::string_view escaped = escape_of(c);
    if (escaped.empty()) {
      out += c;
    } else {
      out += escaped;
    }
  }
  return out;
}

std::size_t utf16_units(std::string_view text) {
  std::size_t units = 0;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = sequence_length(static_cast<unsigned char>(text[i]));
    units += n == 4 ? 2 : 1;
    i += n;
  }
  return units;
}

std::string_view verdict_emoji(Verdict verdict) {
  switch (verdict) {
    case Verdict::kSafe:
      return "🟢";
    case Verdict::kSuspicious:
      return "🟠";
    case Verdict::kDanger:
      return "🔴";
  }
  return "";
}

std::string format_report(const Report& report, Language language, std::string_view source) {
  // Fixed parts first; the signals get what is left of the limit. Each
  // part is bounded, so the fixed parts can never use it all up:
  // source 200 + header 200 + summary 1200 + 4 actions of 300 + headings.
  std::string head;
  if (!source.empty()) head += "<i>" + escape_within(source, 200) + "</i>\n";
  head += std::string(verdict_emoji(report.verdict)) + " <b>" +
          escape_within(report.risk_text, 100) + "</b> · " +
          std::string(text(language, Text::kRisk)) + " " + std::to_string(report.risk_score) +
          "/100\n";
  head += escape_within(report.summary_plain, 1200) + "\n";

  std::string tail;
  if (!report.actions.empty()) {
    tail += "\n<b>" + std::string(text(language, Text::kWhatToDo)) + "</b>\n";
    std::size_t shown = 0;
    for (const Action& action : report.actions) {
      if (++shown > 4) break;
      tail += escape_within(action.icon, 8) + " " + escape_within(action.text, 300) + "\n";
    }
  }

  const std::size_t fixed = utf16_units(head) + utf16_units(tail);
  std::size_t budget = kMaxMessageUnits > fixed ? kMaxMessageUnits - fixed : 0;

  std::vector<std::string> lines;
  for (const Signal& signal : report.signals) {
    std::string line = "• " + escape_within(signal.explanation, 300);
    if (!signal.evidence.empty()) {
      line += "\n   “<code>" + escape_within(signal.evidence, 400) + "</code>”";
    }
    line += "\n";
    lines.push_back(std::move(line));
  }
  std::string middle;
  if (!lines.empty()) {
    const std::string heading = "\n<b>" + std::string(text(language, Text::kWhy)) + "</b>\n";
    // Room kept for the "… and N more" line, should it be needed.
    constexpr std::size_t kMoreRoom = 60;
    if (budget > utf16_units(heading) + kMoreRoom) {
      middle = heading;
      budget -= utf16_units(heading) + kMoreRoom;
      std::size_t shown = 0;
      for (const std::string& line : lines) {
        const std::size_t units = utf16_units(line);
        if (units > budget) break;
        middle += line;
        budget -= units;
        ++shown;
      }
      if (shown < lines.size()) {
        std::string more(text(language, Text::kMoreSignals));
        more.replace(more.find("{n}"), 3, std::to_string(lines.size() - shown));
        middle += more + "\n";
      }
    }
  }
  std::string out = head + middle + tail;
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace scamcheck::telegram_bot
