{{%AUTOESCAPE context="HTML"}}<h1>{{T_TOKENS_TITLE}}</h1>
<p>{{T_TOKENS_INTRO}}</p>
{{#NEW_TOKEN}}<div class="notice ok new-token" role="status">
<p>{{NEW_TOKEN_TEXT}}</p>
<p><code id="new-token-value">{{VALUE}}</code> <button type="button" class="copy" data-copy="new-token-value" data-done="{{T_TOKENS_COPIED}}" hidden>{{T_TOKENS_COPY}}</button></p>
</div>{{/NEW_TOKEN}}
{{#NOTICE}}<div class="notice {{NOTICE_CLASS}}" role="alert" id="notice">{{NOTICE_TEXT}}</div>{{/NOTICE}}
<h2>{{T_TOKENS_CREATE}}</h2>
<form method="post" action="/developer/tokens" class="narrow" id="token-form">
<input type="hidden" name="csrf" value="{{CSRF}}">
<label for="token-name">{{T_TOKENS_NAME}}</label>
<input type="text" id="token-name" name="name" required maxlength="100">
<fieldset>
<legend>{{T_TOKENS_ABILITIES}}</legend>
<label class="check"><input type="checkbox" name="ability" value="scan:create" checked> {{T_TOKENS_ABILITY_SCAN_CREATE}}</label>
<label class="check"><input type="checkbox" name="ability" value="reports:read"> {{T_TOKENS_ABILITY_REPORTS_READ}}</label>
<label class="check"><input type="checkbox" name="ability" value="reports:delete"> {{T_TOKENS_ABILITY_REPORTS_DELETE}}</label>
<label class="check"><input type="checkbox" name="ability" value="*"> {{T_TOKENS_ABILITY_ALL}}</label>
</fieldset>
<label for="token-expires">{{T_TOKENS_EXPIRES}}</label>
<input type="number" id="token-expires" name="expires_in_days" min="1" max="3650" step="1">
<button type="submit">{{T_TOKENS_SUBMIT}}</button>
</form>
<h2>{{T_TOKENS_LIST}}</h2>
{{#EMPTY}}<p>{{T_TOKENS_EMPTY}}</p>{{/EMPTY}}
{{#TABLE}}<table class="list" id="tokens">
<thead><tr><th scope="col">{{T_TOKENS_NAME}}</th><th scope="col">{{T_TOKENS_ABILITIES}}</th><th scope="col">{{T_TOKENS_CREATED}}</th><th scope="col">{{T_TOKENS_LAST_USED}}</th><th scope="col">{{T_TOKENS_EXPIRES_AT}}</th><th scope="col">{{T_TOKENS_STATUS}}</th><th scope="col"><span class="visually-hidden">{{T_TOKENS_REVOKE}}</span></th></tr></thead>
<tbody>{{#ROW}}<tr data-token-id="{{ID}}" data-status="{{STATUS}}"><td class="token-name">{{NAME}}</td><td>{{ABILITIES}}</td><td>{{CREATED}}</td><td>{{LAST_USED}}</td><td>{{EXPIRES}}</td><td>{{STATUS_TEXT}}</td>
<td>{{#REVOCABLE}}<form method="post" action="/developer/tokens/{{ID}}/revoke" class="inline"><input type="hidden" name="csrf" value="{{CSRF}}"><button type="submit" class="danger" aria-label="{{T_TOKENS_REVOKE}}: {{NAME}}">{{T_TOKENS_REVOKE}}</button></form>{{/REVOCABLE}}</td></tr>
{{/ROW}}</tbody>
</table>{{/TABLE}}
