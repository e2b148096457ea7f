{{%AUTOESCAPE context="HTML"}}<section class="report verdict-{{VERDICT}}" id="report" aria-labelledby="report-title" data-verdict="{{VERDICT}}" data-report-id="{{REPORT_ID}}">
<h2 id="report-title">{{T_REPORT_TITLE}}: <span class="risk-text" id="risk-text">{{RISK_TEXT}}</span></h2>
<div class="meter">
<p><span class="label">{{T_REPORT_SCORE}}</span> <strong id="risk-score">{{RISK_SCORE}}</strong>/100</p>
<p><span class="label">{{T_REPORT_CONFIDENCE}}</span> <strong id="confidence">{{CONFIDENCE}}</strong>/100</p>
<p class="created">{{CREATED}}</p>
</div>
<h3>{{T_REPORT_SUMMARY}}</h3>
<p id="summary">{{SUMMARY}}</p>
<h3>{{T_REPORT_ACTIONS}}</h3>
<ul class="actions" id="actions">{{#ACTION}}<li><span aria-hidden="true">{{ICON}}</span> {{TEXT}}</li>{{/ACTION}}</ul>
{{#MESSAGE}}<h3>{{MESSAGE_TITLE}}</h3>
<p class="hint">{{T_REPORT_MESSAGE_HINT}}</p>
<pre class="message" id="message">{{#SEG}}{{#PLAIN}}{{TEXT:pre_escape}}{{/PLAIN}}{{#MARK}}<mark tabindex="0" data-signal="{{KEY}}" data-severity="{{SEVERITY}}" title="{{EXPLANATION}}" data-tip="{{EXPLANATION}}">{{TEXT:pre_escape}}</mark>{{/MARK}}{{/SEG}}</pre>{{/MESSAGE}}
{{#STORED_NOTE}}<p class="hint">{{T_REPORT_STORED_NOTE}}</p>{{/STORED_NOTE}}
<h3>{{T_REPORT_SIGNALS}}</h3>
{{#NO_SIGNALS}}<p>{{T_REPORT_NO_SIGNALS}}</p>{{/NO_SIGNALS}}
{{#PART}}<div class="part"><h4>{{PART_TITLE}}</h4>
<ul class="signals">{{#SIGNAL}}<li class="sev-{{SEVERITY}}" data-key="{{KEY}}"><span class="sev">{{SEVERITY_TEXT}}</span> <q class="evidence">{{EVIDENCE}}</q> — {{EXPLANATION}}</li>{{/SIGNAL}}</ul></div>{{/PART}}
{{#URLS}}<h3>{{T_REPORT_URLS}}</h3>
<ul class="urls">{{#URL}}<li><code>{{URL_TEXT}}</code> — {{REPUTATION}}</li>{{/URL}}</ul>{{/URLS}}
</section>
